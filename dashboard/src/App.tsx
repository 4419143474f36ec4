// Boot: health (public) and config. A 401 from any call shows the login page in place.
import { useCallback, useEffect, useMemo, useState } from "react";
import { api, onUnauthorized, unwrap } from "./api/client";
import type { AppConfig, Health } from "./api/types";
import { Header } from "./components/Header";
import { SearchBox } from "./components/SearchBox";
import { ErrorNotice, Loading } from "./components/States";
import { ToastProvider } from "./components/Toast";
import { AppContext, type AppState } from "./lib/app";
import { ApiError } from "./api/errors";
import { Routes } from "./Routes";
import { LoginPage } from "./pages/LoginPage";
import { forgetOfflineData, useOnline } from "./lib/pwa";
import { returnToConsent } from "./lib/consent-return";

type Phase =
  | { name: "booting" }
  | { name: "login"; setup?: boolean }
  | { name: "failed"; error: unknown }
  | { name: "ready" };

export function App() {
  const [phase, setPhase] = useState<Phase>({ name: "booting" });
  const [config, setConfig] = useState<AppConfig | null>(null);
  const [health, setHealth] = useState<Health>();
  const [categories, setCategories] = useState<string[]>([]);

  const refreshHealth = useCallback(() => {
    unwrap(api.GET("/api/v1/health")).then(setHealth, () => setHealth(undefined));
  }, []);
  const reloadCategories = useCallback(() => {
    unwrap(api.GET("/api/v1/categories")).then(
      (r) => setCategories(r.categories),
      () => {},
    );
  }, []);

  const boot = useCallback(async () => {
    refreshHealth();
    try {
      const [cfg, cats] = await Promise.all([
        unwrap(api.GET("/api/v1/config")),
        unwrap(api.GET("/api/v1/categories")),
      ]);
      setConfig(cfg);
      setCategories(cats.categories);
      setPhase({ name: "ready" });
      await returnToConsent();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        // A deployed journal without a password asks for a setup token first.
        setPhase({ name: "login", setup: error.details?.setup_required === true });
      } else setPhase({ name: "failed", error });
    }
  }, [refreshHealth]);

  useEffect(() => {
    boot();
    // Already on the sign-in page (boot's parallel calls each answer 401): keep its setup mode.
    // A 401 means the session ended (here or on another device): the month kept for offline goes too.
    const stop = onUnauthorized(() => {
      forgetOfflineData();
      setPhase((p) => (p.name === "login" ? p : { name: "login" }));
    });
    const timer = setInterval(refreshHealth, 60_000);
    return () => {
      stop();
      clearInterval(timer);
    };
  }, [boot, refreshHealth]);

  const online = useOnline();
  const signOut = useCallback(async () => {
    await unwrap(api.POST("/api/v1/auth/logout"));
    forgetOfflineData();
    setConfig(null);
    setPhase({ name: "login" });
  }, []);

  const state = useMemo<AppState | null>(
    () =>
      config && {
        config,
        setConfig,
        health,
        refreshHealth,
        categories,
        reloadCategories,
        // Offline, the journal shows what this device last loaded and changes nothing.
        canWrite: !config.demo_mode && online,
        signOut,
      },
    [config, health, refreshHealth, categories, reloadCategories, signOut, online],
  );

  if (phase.name === "login") return <LoginPage setup={phase.setup === true} onSignedIn={boot} />;
  if (phase.name === "failed")
    return (
      <main className="page page-narrow">
        <h1>Finance Journal</h1>
        <ErrorNotice error={phase.error} onRetry={boot} />
      </main>
    );
  if (phase.name === "booting" || !state)
    return (
      <main className="page">
        <Loading label="Opening your journal…" />
      </main>
    );
  return (
    <AppContext.Provider value={state}>
      <ToastProvider>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <Header />
        {!online && (
          <div className="offline-banner" role="status" data-testid="offline-banner">
            <strong>Offline</strong> — showing what this device last loaded. Changes wait until you are back
            online.
          </div>
        )}
        <SearchBox />
        <main id="main" className="page" tabIndex={-1}>
          <Routes />
        </main>
      </ToastProvider>
    </AppContext.Provider>
  );
}

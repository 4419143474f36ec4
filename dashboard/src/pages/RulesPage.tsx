// Rules: merchant → category overrides, merchant aliases, and auto-ignore patterns in one place.
import { useState } from "react";
import { api, unwrap } from "../api/client";
import { RuleList } from "../components/money-pages/RuleList";
import { RuleSuggestions } from "../components/money-pages/RuleSuggestions";
import { CategoriesSection } from "./settings/CategoriesSection";
import { BanksITaught } from "./templates/BanksITaught";
import { TaughtLayouts } from "./statements/TaughtLayouts";
import { useApp } from "../lib/app";
import { categoryLabel } from "../lib/format";
import { useApi } from "../lib/useApi";

export function RulesPage() {
  // Accepting a suggestion changes the lists below: remount them to read them again.
  const [round, setRound] = useState(0);
  return (
    <section aria-labelledby="rules-h">
      <div className="page-head">
        <h1 id="rules-h">Rules</h1>
      </div>
      <p className="muted">How transactions get their category and which ones are left out of totals.</p>
      <RuleSuggestions onChanged={() => setRound((r) => r + 1)} />
      <Overrides key={`o${round}`} />
      <Aliases />
      <IgnoreRules key={`i${round}`} />
      <BanksITaught />
      <TaughtLayouts />
      <CategoriesSection />
    </section>
  );
}

function Overrides() {
  const { categories } = useApp();
  const list = useApi(() => unwrap(api.GET("/api/v1/overrides")), "overrides");
  const [company, setCompany] = useState("");
  const [category, setCategory] = useState("");
  return (
    <RuleList
      title="Always this category"
      help="A merchant listed here is filed under its category every time, before any other rule."
      testId="rules-overrides"
      items={list.data?.overrides}
      loading={list.loading}
      error={list.error}
      reload={list.reload}
      keyOf={(o) => o.company}
      render={(o) => (
        <>
          <strong>{o.company}</strong> → {categoryLabel(o.category, categories)}
        </>
      )}
      onDelete={(o) =>
        unwrap(api.DELETE("/api/v1/overrides/{company}", { params: { path: { company: o.company } } }))
      }
      add={{
        save: async () => {
          await unwrap(
            api.PUT("/api/v1/overrides/{company}", {
              params: { path: { company: company.trim() } },
              body: { category },
            }),
          );
          setCompany("");
        },
        done: "Rule saved",
        fields: (
          <>
            <input
              value={company}
              onChange={(e) => setCompany(e.target.value)}
              placeholder="Merchant"
              aria-label="Merchant"
              required
            />
            <select
              value={category}
              onChange={(e) => setCategory(e.target.value)}
              aria-label="Category"
              required
            >
              <option value="">Category…</option>
              {categories.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </>
        ),
      }}
    />
  );
}

function Aliases() {
  const list = useApi(() => unwrap(api.GET("/api/v1/merchant-aliases")), "aliases");
  const [raw, setRaw] = useState("");
  const [canonical, setCanonical] = useState("");
  return (
    <RuleList
      title="Merchant names"
      help="Banks spell merchants many ways; an alias shows (and files) a raw name under one name."
      testId="rules-aliases"
      items={list.data?.aliases}
      loading={list.loading}
      error={list.error}
      reload={list.reload}
      keyOf={(a) => a.raw_name}
      render={(a) => (
        <>
          <code>{a.raw_name}</code> → <strong>{a.canonical_name}</strong>
        </>
      )}
      onDelete={(a) =>
        unwrap(
          api.DELETE("/api/v1/merchant-aliases/{raw_name}", { params: { path: { raw_name: a.raw_name } } }),
        )
      }
      add={{
        save: async () => {
          await unwrap(
            api.PUT("/api/v1/merchant-aliases/{raw_name}", {
              params: { path: { raw_name: raw.trim() } },
              body: { canonical_name: canonical.trim() },
            }),
          );
          setRaw("");
          setCanonical("");
        },
        done: "Alias saved",
        fields: (
          <>
            <input
              value={raw}
              onChange={(e) => setRaw(e.target.value)}
              placeholder="As the bank writes it"
              aria-label="Raw name"
              required
            />
            <input
              value={canonical}
              onChange={(e) => setCanonical(e.target.value)}
              placeholder="Show as"
              aria-label="Show as"
              required
            />
          </>
        ),
      }}
    />
  );
}

function IgnoreRules() {
  const list = useApi(() => unwrap(api.GET("/api/v1/ignore-rules")), "ignore");
  const [pattern, setPattern] = useState("");
  return (
    <RuleList
      title="Always ignore"
      help="Transactions whose merchant matches a pattern are left out of every total (transfers between your own accounts, for example)."
      testId="rules-ignore"
      items={list.data?.rules}
      loading={list.loading}
      error={list.error}
      reload={list.reload}
      keyOf={(r) => r.pattern}
      render={(r) => <code>{r.pattern}</code>}
      onDelete={(r) =>
        unwrap(api.DELETE("/api/v1/ignore-rules/{pattern}", { params: { path: { pattern: r.pattern } } }))
      }
      add={{
        save: async () => {
          await unwrap(api.POST("/api/v1/ignore-rules", { body: { pattern: pattern.trim() } }));
          await unwrap(api.POST("/api/v1/ignore-rules/apply", { body: { pattern: pattern.trim() } }));
          setPattern("");
        },
        done: "Rule saved and applied to past transactions",
        button: "Add and apply",
        fields: (
          <input
            value={pattern}
            onChange={(e) => setPattern(e.target.value)}
            placeholder="Merchant pattern"
            aria-label="Pattern"
            required
          />
        ),
      }}
    />
  );
}

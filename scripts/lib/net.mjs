// A free TCP port on 127.0.0.1 (the OS picks one; the listener is closed before returning).
import { createServer } from "node:net";

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

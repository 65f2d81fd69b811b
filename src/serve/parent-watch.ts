/**
 * `npx pharmafeed serve &`, then the npx process stopped: npm (and the shell it runs the bin
 * through) does not pass the signal on, and serve kept port 8080 with nobody left to stop it. When
 * npm started serve (npx, npm start, npm run: it sets npm_command), serve follows its parent: once
 * the parent is gone (the process is re-parented, its ppid changes), serve stops as on SIGTERM.
 * Started otherwise (systemd, a container, nohup), serve is its own master and this does nothing.
 */
export function followParent(onGone: () => void, env: NodeJS.ProcessEnv = process.env, everyMs = 1000): () => void {
  if (env["npm_command"] === undefined) return () => undefined;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

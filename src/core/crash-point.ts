/**
 * A test hook for the kill -9 tests of publishing: with PHARMAFEED_CRASH_AT="rename:3"
 * the process kills itself with SIGKILL at the third `crashPoint("rename")`, so a test can
 * stop generate between any two steps of a publish; "rename:3:abort" calls process.abort() there
 * instead (a native crash's SIGABRT: no handler, no finally, as with SIGKILL). Unset (always, outside tests), a
 * crash point is one map lookup.
 */
const wanted = /^([a-z-]+):(\d+)(:abort)?$/.exec(process.env["PHARMAFEED_CRASH_AT"] ?? "");
const seen = new Map<string, number>();

export function crashPoint(name: string): void {
  if (!wanted || wanted[1] !== name) return;
  const count = (seen.get(name) ?? 0) + 1;
  seen.set(name, count);
  if (count !== Number(wanted[2])) return;
  if (wanted[3]) process.abort();
  process.kill(process.pid, "SIGKILL");
}

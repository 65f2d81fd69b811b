/** Where `serve` keeps the last fetch per marketplace across restarts (a name channels may not use). */
export const SERVE_STATE_FILE = "serve-state.json";

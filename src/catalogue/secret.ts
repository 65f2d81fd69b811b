/**
 * A credential that cannot leak by accident: printing, inspecting, string
 * interpolation and JSON serialisation all show "[redacted]". The value lives in
 * an ES private field, which util.inspect never shows. Only `reveal()` gives it.
 */
import { inspect } from "node:util";

const REDACTED = "[redacted]";

export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return REDACTED;
  }
}

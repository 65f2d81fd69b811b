import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { place } from "../../src/images/box.js";

describe("place", () => {
  it("fits inside the box keeping the aspect ratio, and never enlarges unless asked", () => {
    expect(place(1500, 1500, [800, 800], "inside", false)).toMatchObject({ width: 800, height: 800 });
    expect(place(1500, 1000, [800, 800], "inside", false)).toMatchObject({ width: 800, height: 533 });
    expect(place(450, 450, [800, 800], "inside", false)).toMatchObject({ width: 450, height: 450 });
    expect(place(450, 450, [800, 800], "inside", true)).toMatchObject({ width: 800, height: 800 });
    expect(place(1500, 1500, [800, 600], "inside", false)).toMatchObject({ width: 600, height: 600, left: 0, right: 0 });
  });

  it("contain pads, centred, to exactly the box", () => {
    expect(place(1500, 1500, [800, 600], "contain", false)).toEqual({ width: 600, height: 600, top: 0, bottom: 0, left: 100, right: 100 });
    expect(place(450, 450, [800, 800], "contain", false)).toEqual({ width: 450, height: 450, top: 175, bottom: 175, left: 175, right: 175 });
    expect(place(1001, 500, [800, 800], "contain", false)).toEqual({ width: 800, height: 400, top: 200, bottom: 200, left: 0, right: 0 });
  });

  it("for any size and box: the picture stays within the box and contain adds up to it exactly", () => {
    const side = fc.integer({ min: 1, max: 6000 });
    fc.assert(
      fc.property(side, side, fc.integer({ min: 100, max: 4000 }), fc.integer({ min: 100, max: 4000 }), fc.boolean(), (w, h, bw, bh, enlarge) => {
        const inside = place(w, h, [bw, bh], "inside", enlarge);
        expect(inside.width).toBeLessThanOrEqual(bw);
        expect(inside.height).toBeLessThanOrEqual(bh);
        if (!enlarge) expect(inside.width <= w && inside.height <= h).toBe(true);
        const p = place(w, h, [bw, bh], "contain", enlarge);
        expect([p.left + p.width + p.right, p.top + p.height + p.bottom]).toEqual([bw, bh]);
        expect(Math.min(p.left, p.right, p.top, p.bottom)).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});

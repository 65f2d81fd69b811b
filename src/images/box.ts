/**
 * Where a picture goes in the channel's box. Pure arithmetic, so the sharp
 * pipeline gets exact sizes, the padding adds up to the box to the pixel, and
 * a photo smaller than the box is padded rather than blown up (unless asked).
 */
export interface Placement {
  /** Size of the scaled picture. */
  width: number;
  height: number;
  /** Padding around it (all zero for `inside`). */
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/**
 * Scales (width x height) to fit inside the box keeping its aspect ratio, never
 * up unless `enlarge`; `contain` centres it and pads to exactly the box.
 */
export function place(width: number, height: number, box: readonly [number, number], fit: "inside" | "contain", enlarge: boolean): Placement {
  const [boxWidth, boxHeight] = box;
  let scale = Math.min(boxWidth / width, boxHeight / height);
  if (!enlarge) scale = Math.min(scale, 1);
  // Rounded, then clamped: the longer side lands exactly on the box, the other never past it.
  const w = Math.max(1, Math.min(boxWidth, Math.round(width * scale)));
  const h = Math.max(1, Math.min(boxHeight, Math.round(height * scale)));
  if (fit === "inside") return { width: w, height: h, top: 0, bottom: 0, left: 0, right: 0 };
  const left = Math.floor((boxWidth - w) / 2);
  const top = Math.floor((boxHeight - h) / 2);
  return { width: w, height: h, top, bottom: boxHeight - h - top, left, right: boxWidth - w - left };
}

import crypto from 'node:crypto';

/** Characters that cannot be confused with each other when drawn. */
const ALPHABET = 'abcdefhjkmnpqrstuvwxyz2345678';

/** A 5-character, 130×48 captcha drawn as SVG with noise lines, returned as a data URL. */
export function drawCaptcha(): { text: string; image: string } {
  const text = Array.from({ length: 5 }, () => ALPHABET[crypto.randomInt(ALPHABET.length)]).join('');
  const rnd = (min: number, max: number) => min + crypto.randomInt(max - min + 1);
  const colour = () => `rgb(${rnd(20, 150)},${rnd(20, 150)},${rnd(20, 150)})`;
  const noise = Array.from(
    { length: 6 },
    () => `<path d="M${rnd(0, 30)} ${rnd(5, 43)} C ${rnd(30, 60)} ${rnd(0, 48)}, ${rnd(70, 100)} ${rnd(0, 48)}, ${rnd(100, 130)} ${rnd(5, 43)}" stroke="${colour()}" fill="none" stroke-width="1.5"/>`,
  ).join('');
  const glyphs = [...text]
    .map((ch, i) => {
      const x = 14 + i * 23;
      const y = rnd(30, 38);
      return `<text x="${x}" y="${y}" font-size="${rnd(24, 30)}" font-family="monospace" font-weight="bold" fill="${colour()}" transform="rotate(${rnd(-25, 25)} ${x} ${y})">${ch}</text>`;
    })
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="130" height="48" viewBox="0 0 130 48"><rect width="130" height="48" fill="#f4f6fa"/>${noise}${glyphs}</svg>`;
  return { text, image: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

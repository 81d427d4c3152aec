/**
 * A file chosen for an upload that must be text (CSV, JSON): read in the browser, and refused in
 * one sentence when it is not text (a PNG picked by mistake), instead of sending its bytes to a
 * parser whose answer would quote them.
 */

export interface TextUpload {
  name: string;
  text: string;
  /** Set when the file is not text: the one sentence the form shows; `text` is then empty. */
  problem?: string;
}

// The first bytes of the files people pick by mistake.
const SIGNATURES: readonly [string, readonly number[]][] = [
  ['a PNG image', [0x89, 0x50, 0x4e, 0x47]],
  ['a JPEG image', [0xff, 0xd8, 0xff]],
  ['a GIF image', [0x47, 0x49, 0x46, 0x38]],
  ['a PDF document', [0x25, 0x50, 0x44, 0x46, 0x2d]],
  ['a ZIP archive (or an Excel workbook)', [0x50, 0x4b, 0x03, 0x04]],
  ['a gzip archive', [0x1f, 0x8b]],
];

/** What the bytes are when they are not UTF-8 text ("a PNG image"); null for text. */
export function notTextKind(bytes: Uint8Array): string | null {
  for (const [kind, signature] of SIGNATURES) {
    if (signature.every((byte, index) => bytes[index] === byte)) return kind;
  }
  if (bytes.includes(0)) return 'binary data';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return 'not UTF-8 text';
  }
  return null;
}

/** `accepts`: what the field takes, as the sentence names it ("CSV or JSON", "JSON"). */
export function notTextProblem(name: string, kind: string, accepts = 'CSV or JSON'): string {
  return kind === 'not UTF-8 text'
    ? `${name} is not UTF-8 text: save it as UTF-8 (${accepts}) and choose it again.`
    : `${name} is ${kind}, not a text file: choose the ${accepts} file.`;
}

export async function readTextUpload(file: File, accepts?: string): Promise<TextUpload> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const kind = notTextKind(bytes);
  if (kind !== null) return { name: file.name, text: '', problem: notTextProblem(file.name, kind, accepts) };
  return { name: file.name, text: new TextDecoder('utf-8').decode(bytes) };
}

// A V8 CPU profile drawn as a flame graph (SVG): one box per call path, its width the time that path
// was on the CPU, callers below callees. Idle time is left out, so the width is the process's busy
// time. Boxes are coloured by where the code lives (the project, a dependency, Node's own library,
// V8 and C++, the garbage collector) because that is the first question a profile of a proxy
// answers: how much of the time is ours. Hovering a box shows its function, file, time and share.
//
// Two pure steps: layoutFlameGraph (the profile's call tree, same frames merged, laid out in
// microseconds) and renderFlameGraph (the boxes in pixels, as SVG text).
import { selfTimes, shortUrl, type CallFrame, type CpuProfile, type ProfileNode } from './cpu-profile.js';

export type FrameOrigin = 'project' | 'dependency' | 'node' | 'native' | 'gc';

export interface FlameFrame {
  name: string;
  /** `src/x.js:12`, `undici/lib/…:3`, or `(native)`. */
  location: string;
  origin: FrameOrigin;
  /** 0 for the root; a callee is one above its caller. */
  depth: number;
  /** Microseconds of busy time left of this box. */
  startUs: number;
  /** Microseconds on the stack (the box's width). */
  totalUs: number;
  /** Microseconds on top of the stack. */
  selfUs: number;
}

export interface FlameLayout {
  /** Parents before their children; siblings widest first. */
  frames: FlameFrame[];
  /** The root's width: every sample not left out. */
  busyUs: number;
  /** Every sample, idle included. */
  sampledUs: number;
  maxDepth: number;
  /** Self time by where the code lives: how much of the busy time is ours. */
  selfUsByOrigin: Record<FrameOrigin, number>;
}

/** Functions left out with their whole subtree: V8 names the time the process waited `(idle)`. */
const LEFT_OUT = new Set(['(idle)']);

interface TreeNode {
  frame: CallFrame;
  selfUs: number;
  totalUs: number;
  children: Map<string, TreeNode>;
}

export function layoutFlameGraph(profile: CpuProfile): FlameLayout {
  const byId = new Map<number, ProfileNode>(profile.nodes.map((n) => [n.id, n]));
  const isChild = new Set<number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) isChild.add(c);
  const { byNode, totalUs: sampledUs } = selfTimes(profile);
  const root: TreeNode = { frame: { functionName: '(all)', url: '', lineNumber: -1 }, selfUs: 0, totalUs: 0, children: new Map() };
  // V8 can list the same call path twice (one function, two inlining decisions): merged here.
  const merge = (into: TreeNode, id: number): void => {
    const node = byId.get(id)!;
    const f = node.callFrame;
    if (LEFT_OUT.has(f.functionName)) return;
    const key = `${f.functionName}\u0000${f.url}\u0000${f.lineNumber}`;
    let merged = into.children.get(key);
    if (merged === undefined) {
      merged = { frame: f, selfUs: 0, totalUs: 0, children: new Map() };
      into.children.set(key, merged);
    }
    merged.selfUs += byNode.get(id) ?? 0;
    for (const c of node.children ?? []) merge(merged, c);
  };
  // V8's own `(root)` node is the one no node names as a child; its children hang from ours.
  for (const n of profile.nodes) {
    if (isChild.has(n.id)) continue;
    root.selfUs += byNode.get(n.id) ?? 0;
    for (const c of n.children ?? []) merge(root, c);
  }
  sumTotals(root);

  const frames: FlameFrame[] = [];
  let maxDepth = 0;
  const place = (node: TreeNode, depth: number, startUs: number): void => {
    if (node.totalUs === 0) return;
    maxDepth = Math.max(maxDepth, depth);
    const f = node.frame;
    frames.push({
      name: f.functionName || '(anonymous)',
      location: depth === 0 ? '' : f.url === '' ? '(native)' : `${shortUrl(f.url)}:${f.lineNumber + 1}`,
      origin: depth === 0 ? 'native' : originOf(f),
      depth,
      startUs,
      totalUs: node.totalUs,
      selfUs: node.selfUs,
    });
    let x = startUs;
    for (const child of [...node.children.values()].sort((a, b) => b.totalUs - a.totalUs)) {
      place(child, depth + 1, x);
      x += child.totalUs;
    }
  };
  place(root, 0, 0);
  const selfUsByOrigin: Record<FrameOrigin, number> = { project: 0, dependency: 0, node: 0, native: 0, gc: 0 };
  for (const f of frames) selfUsByOrigin[f.origin] += f.selfUs;
  return { frames, busyUs: root.totalUs, sampledUs, maxDepth, selfUsByOrigin };
}

function sumTotals(node: TreeNode): number {
  let total = node.selfUs;
  for (const child of node.children.values()) total += sumTotals(child);
  node.totalUs = total;
  return total;
}

export function originOf(frame: CallFrame): FrameOrigin {
  const { url, functionName } = frame;
  if (url === '') return functionName === '(garbage collector)' ? 'gc' : 'native';
  if (url.includes('/node_modules/')) return 'dependency';
  if (url.startsWith('node:')) return 'node';
  if (url.startsWith('file:') || url.startsWith('/')) return 'project';
  return 'native'; // wasm:// and the like
}

export interface RenderOptions {
  title: string;
  /** Pixels (1200). */
  width?: number;
  /** A box narrower than this many pixels is not drawn, nor anything above it (0.5). */
  minWidthPx?: number;
}

const FRAME_HEIGHT = 16;
const FONT_SIZE = 11;
/** Average glyph width of the font at FONT_SIZE, to cut labels that would overflow their box. */
const CHAR_WIDTH = FONT_SIZE * 0.6;
const PAD = 10;
const HEADER = 62;

const ORIGINS: Record<FrameOrigin, { label: string; hue: number; saturation: number }> = {
  project: { label: 'this repository (dist/)', hue: 24, saturation: 88 },
  dependency: { label: 'dependencies', hue: 100, saturation: 45 },
  node: { label: 'Node.js library', hue: 212, saturation: 60 },
  native: { label: 'V8, C++, wasm', hue: 40, saturation: 6 },
  gc: { label: 'garbage collector', hue: 350, saturation: 75 },
};

export function renderFlameGraph(layout: FlameLayout, options: RenderOptions): string {
  const width = options.width ?? 1200;
  const minWidthPx = options.minWidthPx ?? 0.5;
  const scale = layout.busyUs === 0 ? 0 : (width - 2 * PAD) / layout.busyUs;
  const drawn = visibleFrames(layout.frames, scale, minWidthPx);
  const topDepth = drawn.reduce((max, f) => Math.max(max, f.depth), 0);
  const height = HEADER + (topDepth + 1) * FRAME_HEIGHT + PAD;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Verdana, sans-serif" font-size="${FONT_SIZE}">`,
    `<rect width="100%" height="100%" fill="#fbfbf8"/>`,
    `<text x="${width / 2}" y="18" text-anchor="middle" font-size="15">${escapeXml(options.title)}</text>`,
    `<text x="${PAD}" y="36" fill="#555">${escapeXml(
      `${fmt(layout.busyUs / 1000)} ms busy of ${fmt(layout.sampledUs / 1000)} ms sampled (idle left out). Width: time on the CPU; a callee sits on its caller; hover a box for its numbers. Self time by origin:`,
    )}</text>`,
  ];
  let legendX = PAD;
  for (const origin of Object.keys(ORIGINS) as FrameOrigin[]) {
    const share = layout.busyUs === 0 ? 0 : (layout.selfUsByOrigin[origin] / layout.busyUs) * 100;
    const label = `${ORIGINS[origin].label}: ${share.toFixed(1)}%`;
    out.push(`<rect x="${legendX}" y="43" width="10" height="10" fill="${colour(origin, ORIGINS[origin].label)}"/><text x="${legendX + 13}" y="52">${escapeXml(label)}</text>`);
    legendX += label.length * CHAR_WIDTH + 30;
  }
  for (const f of drawn) {
    const w = f.totalUs * scale;
    const x = PAD + f.startUs * scale;
    const y = HEADER + (topDepth - f.depth) * FRAME_HEIGHT;
    const share = layout.busyUs === 0 ? 0 : (f.totalUs / layout.busyUs) * 100;
    const tip = `${f.name}${f.location === '' ? '' : ` ${f.location}`}\n${fmt(f.totalUs / 1000)} ms, ${share.toFixed(2)}% of busy time (self ${fmt(f.selfUs / 1000)} ms)`;
    const label = fitLabel(f.name, w);
    out.push(
      `<g><title>${escapeXml(tip)}</title><rect x="${px(x)}" y="${y}" width="${px(w)}" height="${FRAME_HEIGHT - 1}" rx="2" fill="${colour(f.origin, f.name)}"/>` +
        (label === '' ? '' : `<text x="${px(x + 3)}" y="${y + FRAME_HEIGHT - 4}">${escapeXml(label)}</text>`) +
        `</g>`,
    );
  }
  out.push('</svg>', '');
  return out.join('\n');
}

/** The frames wide enough to draw. A box too narrow hides its callees too: they are no wider than it. */
export function visibleFrames(frames: readonly FlameFrame[], scale: number, minWidthPx: number): FlameFrame[] {
  const drawn: FlameFrame[] = [];
  const hiddenAt: boolean[] = [];
  for (const f of frames) {
    const hidden = (f.depth > 0 && hiddenAt[f.depth - 1] === true) || f.totalUs * scale < minWidthPx;
    hiddenAt[f.depth] = hidden;
    if (!hidden) drawn.push(f);
  }
  return drawn;
}

/** The name cut to the box's width, or '' when not even a few characters fit. */
export function fitLabel(name: string, widthPx: number): string {
  const chars = Math.floor((widthPx - 6) / CHAR_WIDTH);
  if (chars < 3) return '';
  return name.length <= chars ? name : `${name.slice(0, chars - 2)}..`;
}

/** The origin's hue; the name moves the lightness a little so neighbours stay apart. */
function colour(origin: FrameOrigin, name: string): string {
  const { hue, saturation } = ORIGINS[origin];
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
  return `hsl(${hue + (h % 12)},${saturation}%,${58 + (h % 15)}%)`;
}

/** Text safe inside an element or an attribute; control characters, which XML forbids, become `?`. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => XML_ENTITIES[c]!).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '?');
}

const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

function px(n: number): string {
  return n.toFixed(2);
}

function fmt(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms.toFixed(1);
}

// The node flags the gateway is served with. `npm start` (package.json), the image's command (which a
// deploy test holds to `npm start`'s) and the `model-gateway` command's first line (src/main.ts) carry
// them as text; a test holds each to this list. The local fleet starts its instances with them, and the
// bench runs the proxies it measures with them.
//
// --max-semi-space-size=32: a request keeps its context, body and answer while the provider answers;
// with V8's default 16 MiB semi-spaces the scavenges during that wait promoted what the requests in
// flight held (7.5 KB per messages request) into old-space collections. With 32 MiB, 0.6 KB
// (bench/README.md, "The young generation").
//
// --initial-old-space-size=64: V8 starts marking the old generation as soon as its room left under
// the next collection's limit is smaller than the young generation (twice 32 MiB here). The gateway's
// old generation holds ~17 MiB when idle, and the limit V8 sets after a full collection left less room
// than that, so at low load (one connection) every full collection started the next one: 168 pauses
// of 3.4 ms on average in 12 s of chat-stream, and concurrent marking on V8's helper threads took the
// gateway's CPU per request to 734 µs. With a floor of 64 MiB under the limit, 46 pauses and 411 µs;
// at 32 connections and with 2,000 open streams, no change (bench/README.md, "Marking that never
// stopped"). Not accepted in NODE_OPTIONS: it is given on the command line.
export const SERVE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32', '--initial-old-space-size=64'];

// The node flags the gateway is served with. `npm start` (package.json), the image's command (which a
// deploy test holds to `npm start`'s) and the `model-gateway` command's first line (src/main.ts) carry
// them as text; a test holds each to this list. The local fleet starts its instances with them, and the
// bench runs the proxies it measures with them.
//
// --max-semi-space-size=32: a request keeps its context, body and answer while the provider answers;
// with V8's default 16 MiB semi-spaces the scavenges during that wait promoted what the requests in
// flight held (7.5 KB per messages request) into old-space collections. With 32 MiB, 0.6 KB
// (bench/README.md, "The young generation"). Not --initial-old-space-size=64: it ended constant
// marking at low load but made the streamed scenarios promote 30 to 50 times as much at 32 connections
// (bench/README.md, "Marking that never stopped").
export const SERVE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32'];

// The flags node runs the agent with: in the systemd unit's ExecStart and in every harness that starts
// the bundle, so what is measured is what runs. V8 reads them only at start (v8.setFlagsFromString from
// inside the bundle comes too late), hence on the command line.
//
// --max-semi-space-size=1 (MB): V8 grows its young generation with the allocation rate it sees, up to
// 16 MB a semi-space, and keeps it committed. A long hub outage (a fresh connection per dial) grew RSS by
// ~34 MB over 43,200 failed dials though heap used stayed flat; with 1 MB semi-spaces, +4.9 MB, and the
// dials were no slower (bench/agent-reconnect.bench.ts, docs/performance.md "Agent bus reconnect").
export const AGENT_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=1"];

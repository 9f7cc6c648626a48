// `agent <command>`: the entry of the bundle.
import { AGENT_VERSION } from "./version";

const [command] = process.argv.slice(2);
if (command === "version") {
  process.stdout.write(`${AGENT_VERSION}\n`);
} else {
  process.stderr.write(`agent ${AGENT_VERSION}: unknown command ${JSON.stringify(command ?? "")}\n`);
  process.exitCode = 2;
}

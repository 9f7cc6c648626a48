// `agent <command>`: the entry of the bundle.
import { AGENT_VERSION } from "./version";
import { enrollCommand } from "./platform/enroll";

const [command, ...rest] = process.argv.slice(2);
if (command === "version") {
  process.stdout.write(`${AGENT_VERSION}\n`);
} else if (command === "enroll") {
  // Temporary dispatch (helper "platform"): the core helper's CLI replaces it and passes its config loader.
  process.exitCode = await enrollCommand(rest, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
} else {
  process.stderr.write(`agent ${AGENT_VERSION}: unknown command ${JSON.stringify(command ?? "")}\n`);
  process.exitCode = 2;
}

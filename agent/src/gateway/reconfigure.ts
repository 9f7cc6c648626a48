// `agent gateway reconfigure`: the operator's consent to a changed hub identity (operator token, hub
// leaf URL, hub domain, accounts). It removes the record of what the leaf was configured from; the running
// agent then writes the leaf config anew from what the platform serves at its next refresh and restarts
// the leaf. The JetStream store stays.
import { existsSync, rmSync } from "node:fs";
import { leafFiles } from "./leaf-files";

/** Throws (one line, exit 1) when the directory holds no applied leaf configuration to remove. */
export function reconfigureGateway(stateDir: string, out: NodeJS.WritableStream): number {
  const files = leafFiles(stateDir);
  if (!existsSync(files.applied)) {
    throw new Error(
      `${stateDir} holds no applied leaf configuration (${files.applied}): not a gateway's state directory, or reconfigured already and not refreshed since; nothing was changed`,
    );
  }
  rmSync(files.applied, { force: true });
  out.write(
    `removed ${files.applied}\nthe running agent writes the leaf configuration anew from GET /api/me/leaf-config at its next refresh (gateway.leaf_config_interval) and restarts the leaf\n`,
  );
  return 0;
}

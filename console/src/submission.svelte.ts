// A dialog form's submission: one at a time (`saving` disables the submit button), and the server's
// refusal in words (`error`, shown in the form). The work itself tracks its requests (busy.svelte.ts).
import { messageOf } from "./pb";

export class Submission {
  saving = $state(false);
  error = $state("");

  /** Runs `work`; when it fails, `error` says why. */
  async run(work: () => Promise<unknown>): Promise<void> {
    this.error = "";
    this.saving = true;
    try {
      await work();
    } catch (failure) {
      this.error = messageOf(failure);
    } finally {
      this.saving = false;
    }
  }
}

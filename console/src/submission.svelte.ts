// A dialog form's submission: one at a time (`saving` disables the submit button), and the server's
// refusal in words (`error`, shown in the form). The work itself tracks its requests (busy.svelte.ts).
import { messageOf } from "./pb";

export class Submission {
  saving = $state(false);
  error = $state("");

  /** Runs `work`; true when it succeeded, else `error` says why. */
  async run(work: () => Promise<unknown>): Promise<boolean> {
    this.error = "";
    this.saving = true;
    try {
      await work();
      return true;
    } catch (failure) {
      this.error = messageOf(failure);
      return false;
    } finally {
      this.saving = false;
    }
  }
}

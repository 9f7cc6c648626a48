// The process's own stdout and stderr as Go writers. console.log and console.error go through Go's log
// package, which prefixes a timestamp; a line meant to be read as it is (a JSON line, a command's error)
// is written to these instead. A fresh cobra command with no output set writes to os.Stdout and
// os.Stderr: handler VMs have no `$app.rootCmd`, and the root command's error writer is PocketBase's
// no-op one (pocketbase.go: `RootCmd.SetErr(&nopWrite{})`), so a running command's errOrStderr() is silent.

export function stdout(): io.Writer {
  return new Command({}).outOrStdout();
}

export function stderr(): io.Writer {
  return new Command({}).errOrStderr();
}

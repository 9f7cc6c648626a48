// Hooks entry of the crypto bench, copied verbatim next to the bundles by bench/crypto/run.mjs.
// `cryptobench ops <signerUrl> <node> <native-signer.mjs> <go-signer or "">` or `cryptobench load <lib>` runs in
// the loader VM and prints one line, "CRYPTOBENCH_RESULT <json>" (console.log goes to stdout behind a log
// timestamp).
// Handlers run in other pooled VMs that see nothing of this file's scope, hence the require inside each.

// Load probe: `$app.validate` of a _superusers record fires this in a pooled executor VM, which has not
// required the library yet but shares the process's cache of compiled modules with the loader VM.
onRecordValidate((e) => {
  const lib = $app.store().get("cryptobench.probe");
  if (!lib) return e.next();
  $app.store().set("cryptobench.probe.result", JSON.stringify(require(`${__hooks}/lib/bench.js`).measureLoad(lib)));
  // No e.next(): the probe record is incomplete and must not reach validation.
}, "_superusers");

$app.rootCmd.addCommand(
  new Command({
    use: "cryptobench",
    run: (cmd, args) => {
      const bench = require(`${__hooks}/lib/bench.js`);
      let result;
      if (args[0] === "load") {
        const loader = bench.measureLoad(args[1]);
        $app.store().set("cryptobench.probe", args[1]);
        $app.validate(new Record($app.findCollectionByNameOrId("_superusers")));
        result = { loader, executor: JSON.parse($app.store().get("cryptobench.probe.result")) };
      } else {
        result = bench.measureOps(args[1], args[2], args[3], args[4]);
      }
      console.log("CRYPTOBENCH_RESULT " + JSON.stringify(result));
    },
  }),
);

// Imported first by the Restate benches: the SDK reads RESTATE_LOGGING once, as its module loads,
// so set later (after the imports that load it) it logs two lines per invocation at INFO, a cost
// that grows with the invocations a side makes and that neither side is measured for.
process.env.RESTATE_LOGGING ??= 'ERROR';

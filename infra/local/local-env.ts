// Environment defaults for running functions on a laptop (twin, tests, benchmarks). Imported first,
// because Powertools reads these when its singletons are created at module load.

/** Lambda runs Node 22+; the SDK's notice that future releases need Node 22 is noise locally. */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
/** No CloudWatch here: metrics would only print EMF blobs to stdout. */
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
/** No X-Ray daemon here. */
process.env.POWERTOOLS_TRACE_ENABLED ??= 'false';
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';

export {};

// A reference OTLP sender: the official OpenTelemetry JS SDK (tests/npm/otel,
// pinned by package-lock.json) sends one span "js-work" to URL over PROTOCOL
// (grpc, http/protobuf, http/json), as a child of $TRACEPARENT when set, as
// an instrumented program run under renacer does.
//   node jssender.js PROTOCOL URL
'use strict';
const path = require('path');
const mods = path.join(__dirname, '..', 'npm', 'otel', 'node_modules');
const req = (m) => require(path.join(mods, m));
const api = req('@opentelemetry/api');
const { BasicTracerProvider, BatchSpanProcessor } = req('@opentelemetry/sdk-trace-base');
const { Resource } = req('@opentelemetry/resources');
const { W3CTraceContextPropagator } = req('@opentelemetry/core');

const [proto, url] = process.argv.slice(2);
if (process.env.JSSENDER_DEBUG) api.diag.setLogger(new api.DiagConsoleLogger(), api.DiagLogLevel.DEBUG);
const Exporter = {
  'grpc': () => req('@opentelemetry/exporter-trace-otlp-grpc').OTLPTraceExporter,
  'http/protobuf': () => req('@opentelemetry/exporter-trace-otlp-proto').OTLPTraceExporter,
  'http/json': () => req('@opentelemetry/exporter-trace-otlp-http').OTLPTraceExporter,
}[proto];
if (!Exporter || !url) {
  console.error('usage: node jssender.js grpc|http/protobuf|http/json URL');
  process.exit(2);
}
const provider = new BasicTracerProvider({
  resource: new Resource({ 'service.name': 'js-reference' }),
});
provider.addSpanProcessor(new BatchSpanProcessor(new (Exporter())({ url })));
const tracer = provider.getTracer('jssender', '1.0.0');
let ctx = api.ROOT_CONTEXT;
if (process.env.TRACEPARENT) {
  const carrier = { traceparent: process.env.TRACEPARENT };
  if (process.env.TRACESTATE) carrier.tracestate = process.env.TRACESTATE;
  ctx = new W3CTraceContextPropagator().extract(ctx, carrier, api.defaultTextMapGetter);
}
const span = tracer.startSpan('js-work', { attributes: { 'js.answer': 42 } }, ctx);
span.end();
provider.forceFlush().then(() => provider.shutdown()).then(
  () => process.exit(0),
  (e) => { console.error('jssender: ' + e); process.exit(1); });

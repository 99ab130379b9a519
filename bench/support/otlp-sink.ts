import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An OTLP/HTTP receiver on loopback that reads every export and drops it (200): where a bench's
 * server sends its spans when tracing is measured (BENCH_TRACING=1). It counts what it got, so a
 * run shows that spans did go out.
 */
export interface OtlpSink {
  /** The endpoint, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  /** Exports received and their bytes so far. */
  received(): { exports: number; bytes: number };
  close(): void;
}

export async function startOtlpSink(): Promise<OtlpSink> {
  let exports = 0;
  let bytes = 0;
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => {
      bytes += chunk.byteLength;
    });
    request.on('end', () => {
      exports++;
      response.writeHead(200, { 'content-type': request.headers['content-type'] ?? 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => ({ exports, bytes }),
    close: () => server.close(),
  };
}

import http from 'node:http';
import { gzipSync, brotliCompressSync } from 'node:zlib';
import { createDataApiClient } from './activities/api/client.ts';
const body = JSON.stringify({ blocks: [], nextPageToken: undefined });
const srv = http.createServer((req, res) => {
  const enc = req.url!.includes('br') ? 'br' : 'gzip';
  res.writeHead(req.url!.includes('moved') ? 302 : 200, req.url!.includes('moved') ? { location: req.url!.replace('moved', 'br') } : { 'content-type': 'application/json', 'content-encoding': enc });
  res.end(req.url!.includes('moved') ? '' : enc === 'br' ? brotliCompressSync(body) : gzipSync(body));
});
await new Promise<void>((r) => srv.listen(0, r));
console.log(srv.address());
srv.close();

// A bare Fastify route on the same machine: the baseline the activity API is compared to.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/bare', async (req) => ({ ok: true, size: JSON.stringify(req.body).length }));
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`LISTENING ${typeof address === 'object' && address ? address.port : 0}\n`);

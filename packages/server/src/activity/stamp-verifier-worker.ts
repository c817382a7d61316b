/** A stamp-checking worker thread (stamp-verifier.ts): answers each stamp with whether it verifies. */
import { serveJobs } from '../threads/serve.js';
import { checkStamp, type StampJob } from './stamp-check.js';

serveJobs((job: StampJob) => checkStamp(job));

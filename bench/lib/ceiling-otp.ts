/**
 * The simulated user of the ceiling's email OTP login (bench/ceiling/server.ts `/otp/*`): the same
 * client work as World.loginByCode (the bundle checked against the pinned key, the code sealed to
 * the target, the token signed), against routes that do only the server's crypto.
 */
import { Agent } from 'node:http';
import { type BenchKey, encryptOtpAttempt, openBundle, tokenSignature } from './client-crypto.js';
import { post } from './http.js';

export class CeilingOtp {
  private readonly agent = new Agent({ keepAlive: true });

  private constructor(
    private readonly url: string,
    private readonly signingPublicKey: string,
  ) {}

  /** A client of the ceiling at `url`, its signing key pinned. */
  static async connect(url: string): Promise<CeilingOtp> {
    const agent = new Agent({ keepAlive: false });
    const key = await post(`${url}/otp/key`, agent, '{}');
    const pinned = (key.body as { signingPublicKey?: unknown }).signingPublicKey;
    if (key.status !== 200 || typeof pinned !== 'string') throw new Error(`ceiling /otp/key: ${key.status}`);
    return new CeilingOtp(url, pinned);
  }

  private async call<T>(route: string, body: unknown): Promise<T> {
    const reply = await post(`${this.url}${route}`, this.agent, JSON.stringify(body));
    if (reply.status !== 200) throw new Error(`ceiling ${route}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 200)}`);
    return reply.body as T;
  }

  /** init, verify, login for `email` with the device key `key`; throws unless each is a 200. */
  async login(email: string, key: BenchKey): Promise<void> {
    const init = await this.call<{ otpId: string; otpEncryptionTargetBundle: string; code: string }>('/otp/init', { contact: email });
    const { targetPublic } = openBundle<{ targetPublic: string }>(init.otpEncryptionTargetBundle, this.signingPublicKey);
    const { verificationToken } = await this.call<{ verificationToken: string }>('/otp/verify', {
      otpId: init.otpId,
      encryptedOtpBundle: encryptOtpAttempt(targetPublic, init.code, key.publicKey),
    });
    const { session } = await this.call<{ session?: unknown }>('/otp/login', {
      verificationToken,
      publicKey: key.publicKey,
      clientSignature: tokenSignature(key, verificationToken, 'USAGE_TYPE_LOGIN'),
    });
    if (typeof session !== 'string') throw new Error('ceiling /otp/login answered without a session');
  }

  close(): void {
    this.agent.destroy();
  }
}

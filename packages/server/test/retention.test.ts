/** OTP retention: expired codes leave once outside the throttle window; outbox codes once expired. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization } from '../src/admin/organizations';
import { newId } from '../src/store/ids';
import { purgeExpiredOtps, startRetention } from '../src/store/retention';
import { otpOutbox, otps } from '../src/store/schema';
import { openTestStore, storeKinds, type TestStore } from './support/stores';

const LIMITS = { ttlSeconds: 300, maxAttempts: 3, maxPerContactPerWindow: 5, windowSeconds: 600 };
const NOW = new Date('2026-11-22T12:00:00Z');
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);

describe.each(storeKinds)('OTP retention on %s', (kind) => {
  let store: TestStore;
  let organizationId: string;
  beforeAll(async () => {
    store = await openTestStore(kind);
    ({ organizationId } = await createOrganization(store, { name: 'retention' }));
  });
  afterAll(() => store?.dispose());

  async function addOtp(label: string, createdAt: Date, expiresAt: Date) {
    await store.db.insert(otps).values({
      id: `${label}-${newId()}`,
      organizationId,
      otpType: 'OTP_TYPE_EMAIL',
      contact: `${label}@example.com`,
      codeMac: '00',
      targetPublicKey: '04',
      targetPrivateKeyEncrypted: { encappedPublic: '', ciphertext: '' },
      maxAttempts: 3,
      expiresAt,
      createdAt,
    });
  }
  async function addOutbox(label: string, createdAt: Date) {
    await store.db
      .insert(otpOutbox)
      .values({ id: `${label}-${newId()}`, organizationId, channel: 'email', recipient: `${label}@example.com`, body: 'code', createdAt });
  }
  const labels = async () => ({
    otps: (await store.db.select({ id: otps.id }).from(otps)).map((r) => r.id.split('-')[0]).sort(),
    outbox: (await store.db.select({ id: otpOutbox.id }).from(otpOutbox)).map((r) => r.id.split('-')[0]).sort(),
  });

  it('given codes expired long ago, expired inside the throttle window, and live, when purged, then only the first go, and outbox messages go once their code expired', async () => {
    await addOtp('old', ago(1000), ago(700));
    await addOtp('windowed', ago(400), ago(100));
    await addOtp('live', ago(10), ago(-290));
    await addOutbox('stale', ago(301));
    await addOutbox('fresh', ago(60));

    expect(await purgeExpiredOtps(store.db, NOW, LIMITS)).toEqual({ otps: 1, outbox: 1 });
    expect(await labels()).toEqual({ otps: ['live', 'windowed'], outbox: ['fresh'] });
    // Idempotent: nothing more to remove at the same instant.
    expect(await purgeExpiredOtps(store.db, NOW, LIMITS)).toEqual({ otps: 0, outbox: 0 });
  });

  it('given the running sweeper, when it starts, then it purges at once and stop() ends it', async () => {
    await addOtp('old', ago(2000), ago(1900));
    let errors = 0;
    const stop = startRetention(
      store.db,
      LIMITS,
      () => NOW,
      () => (errors += 1),
      60_000,
    );
    await expect.poll(async () => (await labels()).otps.includes('old')).toBe(false);
    stop();
    expect(errors).toBe(0);
  });
});

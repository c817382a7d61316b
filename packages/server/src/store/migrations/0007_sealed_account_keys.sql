-- 0007_sealed_account_keys (issue 14): each wallet account's private key, sealed at rest (HPKE to
-- the enclave's at-rest key, like the mnemonic), so a signature opens one 32-byte key instead of
-- running BIP39's PBKDF2 and BIP32 derivation. Accounts stored before have none: they sign through
-- their wallet's mnemonic once, which stores their sealed key (no gap, no batch job).

ALTER TABLE "wallet_accounts" ADD COLUMN "private_key_encrypted" jsonb;

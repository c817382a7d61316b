// Hardhat Network for the tests (test/support/chain.ts): chain id 31337, the Prague hardfork
// (EIP-7702), the well-known dev mnemonic's funded accounts, instant mining.
module.exports = {
  networks: {
    hardhat: { chainId: 31337, hardfork: 'prague' },
  },
};

// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// The smallest ERC-1271 smart wallet: a signature is valid when its owner EOA signed the hash
/// (65-byte r, s, v). Wallet sign-in tests use it deployed and, through the factory, undeployed
/// (ERC-6492: the factory call that would deploy it travels wrapped in the signature).
contract TestSmartWallet {
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := calldataload(signature.offset)
            s := calldataload(add(signature.offset, 32))
            v := byte(0, calldataload(add(signature.offset, 64)))
        }
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }
}

/// Deploys TestSmartWallet with CREATE2, so a wallet's address is known before it exists.
contract TestSmartWalletFactory {
    function deploy(address owner, bytes32 salt) external returns (address wallet) {
        address predicted = addressOf(owner, salt);
        if (predicted.code.length > 0) return predicted;
        wallet = address(new TestSmartWallet{salt: salt}(owner));
    }

    function addressOf(address owner, bytes32 salt) public view returns (address) {
        bytes32 initCodeHash = keccak256(abi.encodePacked(type(TestSmartWallet).creationCode, abi.encode(owner)));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, initCodeHash)))));
    }
}

// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

/// The Attestation struct exactly as EAS (IEAS.sol) returns it from getAttestation.
struct Attestation {
    bytes32 uid;
    bytes32 schema;
    uint64 time;
    uint64 expirationTime;
    uint64 revocationTime;
    bytes32 refUID;
    address recipient;
    address attester;
    bool revocable;
    bytes data;
}

/// A stand-in for the EAS contract: the real read (an unknown uid answers an all-zero record,
/// as EAS does) and the two writes the tests need, without schemas or fees.
contract TestEAS {
    mapping(bytes32 => Attestation) private _attestations;

    function attest(bytes32 uid, address recipient, uint64 expirationTime) external {
        _attestations[uid] = Attestation(uid, bytes32(0), uint64(block.timestamp), expirationTime, 0, bytes32(0), recipient, msg.sender, true, "");
    }

    function revoke(bytes32 uid) external {
        _attestations[uid].revocationTime = uint64(block.timestamp);
    }

    function getAttestation(bytes32 uid) external view returns (Attestation memory) {
        return _attestations[uid];
    }
}

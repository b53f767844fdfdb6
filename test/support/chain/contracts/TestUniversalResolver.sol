// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

/// The smallest universal resolver viem's getEnsAddress resolves against: it calls
/// resolveWithGateways(dnsName, abi.encodeCall(addr, (node)), gateways) and decodes the first
/// result as addr's return. An unknown node answers empty bytes, which viem reads as "no address".
contract TestUniversalResolver {
    mapping(bytes32 => address) private _addresses;

    function setAddr(bytes32 node, address a) external {
        _addresses[node] = a;
    }

    function resolveWithGateways(bytes calldata, bytes calldata data, string[] calldata) external view returns (bytes memory, address) {
        bytes32 node = abi.decode(data[4:36], (bytes32));
        address a = _addresses[node];
        if (a == address(0)) return ("", address(0));
        return (abi.encode(a), address(this));
    }
}

// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// A plain ERC-20 for tests (USDC-like: 6 decimals by default), anyone may mint. It emits the
/// standard Transfer event, which is what the gateway's MPP verification and token gating read.
contract TestERC20 {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_, uint8 decimals_) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
    }

    function mint(address to, uint256 value) external {
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        _spendAllowance(from, value);
        _move(from, to, value);
        return true;
    }

    /// Sends to several recipients in one transaction (tests of payments split over logs).
    function transferMany(address[] calldata to, uint256[] calldata value) external {
        require(to.length == value.length, "length");
        for (uint256 i = 0; i < to.length; i++) _move(msg.sender, to[i], value[i]);
    }

    /// Pays `to` from several holders in one transaction, as a payment router or batcher does: each
    /// holder must have approved the caller (tests of a payment whose Transfer logs have several senders).
    function transferFromMany(address[] calldata from, address to, uint256[] calldata value) external {
        require(from.length == value.length, "length");
        for (uint256 i = 0; i < from.length; i++) {
            _spendAllowance(from[i], value[i]);
            _move(from[i], to, value[i]);
        }
    }

    /// Always reverts after moving: a failed transaction whose logs must not count.
    function transferThenRevert(address to, uint256 value) external {
        _move(msg.sender, to, value);
        revert("reverted on purpose");
    }

    function _spendAllowance(address from, uint256 value) private {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= value, "allowance");
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
    }

    function _move(address from, address to, uint256 value) private {
        require(balanceOf[from] >= value, "balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}

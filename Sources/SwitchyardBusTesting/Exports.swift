// Tests of plugins drive time with the portable kit's ManualClock and check stores with its
// TestStore, so `import SwitchyardBusTesting` brings the portable kit along.
@_exported import SwitchyardTesting

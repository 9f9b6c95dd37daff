// Users of the store and the bus work with its streams (Broadcast, CurrentValue, OverflowPolicy)
// directly, so `import Switchyard` brings them along.
@_exported import SwitchyardStreams

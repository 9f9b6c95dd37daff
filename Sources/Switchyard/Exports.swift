// Users of the store work with its streams (Broadcast, CurrentValue, OverflowPolicy) directly,
// so `import Switchyard` brings them along.
@_exported import SwitchyardStreams

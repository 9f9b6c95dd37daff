// A program that serves the doors builds its bus too, so `import SwitchyardDoors` brings the
// runtime (and through it the portable library) along.
@_exported import SwitchyardBus

// A bus program works with the typed store and the streams under the runtime (Store, Middleware,
// Broadcast, CurrentValue), so `import SwitchyardBus` brings the portable library along.
@_exported import Switchyard

import SwitchyardBus

extension ExecPlugin {
    /// On an exit at once, kills the process group of every child the exec plugins started, so
    /// nothing they started outlives the bus (see ``ExecChildren/killAll()``).
    public static var contributions: PluginContributions {
        PluginContributions(exitHook: {
            let children = ExecChildren.killAll()
            return children > 0 ? "killed \(children) child process group\(children == 1 ? "" : "s")" : nil
        })
    }
}

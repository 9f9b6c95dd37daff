// snippet.hide
// The README's opening snippet, quoted verbatim (the hidden lines wrap it for a test).
// snippet.show
import Switchyard

// snippet.hide
/// Runs the snippet, printing into `output`.
public func openingSnippet(_ output: Printed) async {
    @Sendable func print(_ items: Any...) { output.append(items) }
    // snippet.show
    let store = Store(initialState: 0) { (count: inout Int, action: Int) in count += action }
    store.send(2)               // from any task; never blocks; false if the inbox is full
    await store.dispatch(3)     // waits for room, returns once reduced
    print(store.currentState)   // 5
    // snippet.hide
}

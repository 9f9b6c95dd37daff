@testable import Switchyard
@testable import SwitchyardBus

/// A store whose state is every action it reduced, in order, with an inbox of `capacity` and
/// no journal: the batch-entry tests read the order of admission from it.
func makeAppendingStore(capacity: Int) -> Store<[Int], Int> {
    Store<[Int], Int>(
        initialState: [], reducer: { $0.append($1) }, middleware: [], options: StoreOptions(inboxCapacity: capacity),
        firstSequence: 1
    )
}

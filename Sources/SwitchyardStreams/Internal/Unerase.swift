/// Recovers a value that an operator stored type-erased, for the tuples of `combineLatest`
/// and `zip`: each slot holds the element of the input at its position, whose type the tuple
/// names, and the operators assemble a tuple only when no slot is empty, so the cast holds by
/// construction.
@inlinable func unerase<Value>(_ value: (any Sendable)?, as _: Value.Type) -> Value {
    value as! Value
}

/// Recovers the slot at `index` and moves `index` to the next slot, so a pack expansion can
/// walk the slots in order.
@inlinable func unerase<Value>(_ values: [(any Sendable)?], _ index: inout Int, as type: Value.Type) -> Value {
    defer { index += 1 }
    return unerase(values[index], as: type)
}

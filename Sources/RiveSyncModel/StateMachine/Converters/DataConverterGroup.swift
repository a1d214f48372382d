/// Rive's `DataConverterGroup` (type 499): a chain of converters (its
/// `DataConverterGroupItem`s, type 498, each naming a file converter by `converterId`, key
/// 679). Converting runs the items in order; converting back runs their reverse conversions in
/// reverse order. Items that name no converter are left out, as Rive leaves them out.
public struct DataConverterGroup: Sendable, Hashable {
    public var items: [DataConverter]

    public init(items: [DataConverter]) {
        self.items = items
    }

    /// Rive's group output type: that of the last item whose output is not its input's.
    var outputType: DataConverterOutputType {
        items.last { $0.outputType != .input }?.outputType ?? .none
    }

    mutating func convert(_ value: PropertyValue, _ context: inout some DataConverterContext) -> PropertyValue {
        var value = value
        for index in items.indices { value = items[index].convert(value, in: &context) }
        return value
    }

    mutating func reverseConvert(_ value: PropertyValue, _ context: inout some DataConverterContext) -> PropertyValue {
        var value = value
        for index in items.indices.reversed() { value = items[index].reverseConvert(value, in: &context) }
        return value
    }

    mutating func advance(_ elapsedSeconds: Float) -> DataConverterAdvance {
        var result = DataConverterAdvance.idle
        for index in items.indices { result = result.combined(with: items[index].advance(elapsedSeconds)) }
        return result
    }
}

/// Rive's `DataConverterNumberToList` (type 568): turns a number into a list of that many
/// (rounded down, at least 0) default instances of the file's view model `viewModelId`
/// (key 816). The instances are made once and kept: growing the number adds new ones at the
/// end, shrinking drops the last ones, and a list passes through as it is. Without a view
/// model the list is empty; a value that is neither a number nor a list gives an empty list
/// (where Rive's runtime gives no value at all).
///
/// Unlike Rive, the count is capped at ``maximumCount`` so that a hostile number cannot make
/// the daemon create instances without end.
public struct DataConverterNumberToList: Sendable, Hashable {
    /// The most items one converter makes.
    public static let maximumCount = 10_000

    /// The file view-model index, nil when the file names none that exists.
    public var viewModelId: Int?
    /// The instances made so far, in list order.
    public private(set) var items: [InstanceID] = []

    public init(viewModelId: Int?) {
        self.viewModelId = viewModelId
    }

    mutating func convert(_ value: PropertyValue, _ context: inout some DataConverterContext) -> PropertyValue {
        switch value {
        case .list: return value
        case .number(let number):
            guard let viewModelId else {
                items.removeAll()
                return .list([])
            }
            let floored = number.rounded(.down)
            let count = floored.isNaN || floored < 1 ? 0 : Int(min(floored, Float(Self.maximumCount)))
            while items.count < count, let instance = context.makeDefaultInstance(ofViewModel: viewModelId) {
                items.append(instance)
            }
            if items.count > count { items.removeLast(items.count - count) }
            return .list(items)
        default:
            return .list([])
        }
    }
}

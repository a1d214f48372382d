/// Rive's type keys the state machine definition reads (facts from rive-runtime's `dev/defs`).
enum Keys {
    static let artboard = 1
    static let component = 10
    static let nestedArtboard = 92
    static let nestedStateMachine = 95
    static let event = 128
    static let linearAnimation = 31
    static let stateMachine = 53
    static let layer = 57
    static let numberInput = 56
    static let triggerInput = 58
    static let boolInput = 59
    static let layerState = 60
    static let animationState = 61
    static let anyState = 62
    static let entryState = 63
    static let exitState = 64
    static let stateTransition = 65
    static let triggerCondition = 68
    static let numberCondition = 70
    static let boolCondition = 71
    static let blendStateDirect = 73
    static let blendState1D = 527
    static let transitionCondition = 476
    static let transitionComparator = 477
    static let propertyViewModelComparator = 479
    static let booleanComparator = 481
    static let viewModelCondition = 482
    static let colorComparator = 483
    static let numberComparator = 484
    static let enumComparator = 485
    static let stringComparator = 486
    static let triggerComparator = 505
    static let selfComparator = 593
    static let propertyComponentComparator = 667
    static let listener = 654
    static let listenerInputType = 658
    static let listenerInputViewModel = 660
    static let listenerAction = 125
    static let triggerChange = 115
    static let boolChange = 117
    static let numberChange = 118
    static let listenerFireEvent = 168
    static let viewModelChange = 487
    static let fireAction = 615
    static let fireEvent = 169
    static let fireTrigger = 614
    static let bindableProperty = 9
    static let dataBindContext = 447
    /// `ListenerType.viewModel` and `ListenerType.event`.
    static let viewModelListenerType: UInt64 = 11
    static let eventListenerType: UInt64 = 5
}

extension StateMachineGraphReader {
    static func animation(_ object: RiveObject) -> AnimationDefinition {
        let none = UInt64(UInt32.max)
        let start = object.uint(60).flatMap { $0 == none ? nil : $0 }
        let end = object.uint(61).flatMap { $0 == none ? nil : $0 }
        return AnimationDefinition(
            name: object.string(55) ?? "", fps: Float(max(object.uint(56) ?? 60, 1)), duration: Float(object.uint(57) ?? 60),
            speed: object.float(58) ?? 1, loop: object.uint(59) ?? 0, workStart: start, workEnd: end,
            enableWorkArea: (object.uint(62) ?? 0) != 0)
    }

    static func input(_ object: RiveObject) -> StateMachineInputDefinition? {
        let name = object.string(138) ?? ""
        switch object.typeKey {
        case Keys.numberInput: return StateMachineInputDefinition(name: name, kind: .number(object.float(140) ?? 0))
        case Keys.boolInput: return StateMachineInputDefinition(name: name, kind: .boolean((object.uint(141) ?? 0) != 0))
        case Keys.triggerInput: return StateMachineInputDefinition(name: name, kind: .trigger)
        default: return nil
        }
    }

    static func bindableValue(_ object: RiveObject) -> RiveFieldValue? {
        for key in [634, 635, 636, 637, 638, 686] { if let value = object.properties[key] { return value } }
        return nil
    }

    static func dataBind(_ object: RiveObject, target: DataBindDefinition.Target) -> DataBindDefinition {
        let converter = object.uint(660).flatMap { $0 >= UInt64(UInt32.max) ? nil : Int(clamping: $0) }
        return DataBindDefinition(
            sourcePath: ids(object.bytes(588)), target: target, propertyKey: Int(clamping: object.uint(586) ?? 0),
            flags: object.uint(587) ?? 0, converter: converter)
    }

    static func listener(_ object: RiveObject) -> ListenerDefinition {
        var sources: [ListenerDefinition.Source] = []
        let type = object.uint(225) ?? 0
        if object.typeKey == 114 {
            switch type {
            case Keys.viewModelListenerType: sources.append(.viewModel(ids(object.bytes(868))))
            case Keys.eventListenerType: sources.append(.event(Int(clamping: object.uint(399) ?? UInt64(UInt32.max))))
            default: sources.append(.inert(listenerType: type))
            }
        }
        return ListenerDefinition(
            name: object.string(138) ?? "", target: Int(clamping: object.uint(224) ?? 0), sources: sources, actions: [])
    }

    static func comparator(_ object: RiveObject, bindable: Int?) -> ComparatorDefinition {
        switch object.typeKey {
        case Keys.propertyViewModelComparator: return bindable.map { .bindable($0) } ?? .unsupported(typeKey: object.typeKey)
        case Keys.numberComparator: return .number(object.float(652) ?? 0)
        case Keys.booleanComparator: return .boolean((object.uint(647) ?? 0) != 0)
        case Keys.stringComparator: return .string(object.string(654) ?? "")
        case Keys.colorComparator: return .color(object.color(651) ?? 0xFF1D_1D1D)
        case Keys.enumComparator: return .enumIndex(object.uint(653) ?? 0)
        case Keys.triggerComparator: return .trigger
        case Keys.selfComparator: return .changed
        case Keys.propertyComponentComparator:
            guard let id = object.uint(977), id < UInt64(UInt32.max) else { return .unsupported(typeKey: object.typeKey) }
            return .component(Int(id), propertyKey: Int(clamping: object.uint(978) ?? 0))
        default: return .unsupported(typeKey: object.typeKey)
        }
    }

    /// The varuints packed in an id list's bytes (a truncated one ends the list).
    static func ids(_ bytes: [UInt8]?) -> [Int] {
        guard let bytes else { return [] }
        var result: [Int] = []
        var value: UInt64 = 0
        var shift: UInt64 = 0
        for byte in bytes {
            guard shift < 64 else { return result }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 {
                result.append(Int(clamping: value))
                value = 0
                shift = 0
            } else {
                shift += 7
            }
        }
        return result
    }
}

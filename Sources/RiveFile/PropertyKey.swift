import RiveSyncModel

/// The property keys this reader interprets (`RIV-FORMAT.md` §5).
enum PropertyKey {
    /// Component.name: artboards and view model instances.
    static let componentName = 4
    /// Component.parentId: marks artboard-scoped view model instances.
    static let parentId = 5
    /// Animation.name: state machines.
    static let animationName = 55
    /// Asset.name.
    static let assetName = 203
    static let artboardDefaultStateMachineId = 236
    static let artboardViewModelId = 583

    /// ViewModelComponent.name: view models and their properties.
    static let viewModelComponentName = 557
    static let viewModelType = 981
    static let enumId = 574
    static let viewModelReferenceId = 565

    static let instanceViewModelId = 566
    static let viewModelPropertyId = 554
    static let listItemViewModelId = 549
    static let listItemInstanceId = 550

    static let enumName = 572
    static let enumValueKey = 578
    static let enumValueValue = 579

    /// `propertyValue` of each value type.
    static func propertyValue(of kind: ValueKind) -> Int? {
        guard case .typed(let type) = kind else { return 824 }
        switch type {
        case .number: return 575
        case .string: return 561
        case .boolean: return 593
        case .color: return 555
        case .enum: return 560
        case .trigger: return 687
        case .viewModel: return 577
        case .assetImage, .assetFont, .assetBlob: return 824
        case .artboard: return 846
        case .symbolListIndex: return 814
        case .list: return nil
        }
    }
}

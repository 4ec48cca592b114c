// CoffeeShop: the classic DI example with `@Inject`, `@Provider`, named keys, a singleton
// logger and a mock heater swapped in for one block. Run it with `swift run CoffeeShop`.
import Injector

print("1. Creating CoffeeModule registers its providers:")
let module = CoffeeModule()
let shop = DependencyInjector.shared
print(
    "  any Heater registered: \(shop.isRegistered((any Heater).self)), any Pump: \(shop.isRegistered((any Pump).self))")
print("  named values: \"beans\" = \(module.beans), \"cupSize\" = \(module.cupSize)")

print("2. Brewing with the live graph (ElectricHeater, Thermosiphon, one CoffeeLogger):")
let maker = CoffeeMaker()
maker.brew()
CoffeeMaker().brew()

print("3. A new value for a named key: objects created afterwards get it, the old maker keeps its own:")
module.beans = "Sumatra"
CoffeeMaker().brew()
maker.brew()

print("4. A mock heater, for one block only (withOverrides: a test scope, with its own singletons):")
DependencyInjector.shared.withOverrides({ $0.register(MockHeater() as any Heater) }) {
    let demo = CoffeeMaker()
    print("  inside the block, the maker's heater is \(type(of: demo.heater))")
    demo.brew()
}
print("  after the block, a new maker's heater is \(type(of: CoffeeMaker().heater)) again")

print("5. The logger is a singleton: every object outside that block shares it.")
do {
    let logger: CoffeeLogger = try DependencyInjector.resolve()
    print("  it has logged \(logger.lines.count) lines; the same instance everywhere: \(logger === maker.logger)")
} catch {
    print("  unexpected: \(error)")
}

print("6. A missing dependency is a typed error, not a crash:")
do {
    let milk: String = try DependencyInjector.resolve(name: "milk")
    print("  unexpected: \(milk)")
} catch {
    print(error.description.split(separator: "\n").map { "  | \($0)" }.joined(separator: "\n"))
}
print("CoffeeShop finished.")

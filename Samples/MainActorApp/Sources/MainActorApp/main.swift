import Injector
import ShopUI

// Runs on the main actor, like an app's start-up code.
try DependencyInjector.shared.install(ShopModule())
let providers = AppProviders()

let model = ShopViewModel()
model.buy("mug")
print(model.summary)

// A preview or a test: overrides in a scope, without touching the app's registrations.
DependencyInjector.shared.withOverrides({ $0.register(Banner(text: "preview")) }) {
    let preview = ShopViewModel()
    preview.buy("tee")
    print(preview.summary)
}
_ = providers

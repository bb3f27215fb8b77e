import "reflect-metadata";
import { IsString } from "class-validator";
import { Arg, Ctx, McpApp, Result, Tool, View, apps, rendersViews, type RequestContext } from "roundtrip-mcp";

// A view computed by a method on every read (a static one gives `html: "<!doctype html>..."` or
// `html: { file: join(__dirname, "dashboard.html") }`, read once when the app is created).
export class WeatherViews {
  @View({
    uri: "ui://weather/dashboard",
    title: "Weather dashboard",
    csp: { connectDomains: ["https://api.weather.example"] },
    prefersBorder: true,
  })
  dashboard(): string {
    return `<!doctype html><html><body><h1 id="city"></h1><script type="module">/* the App class, bundled */</script></body></html>`;
  }
}

class CityArgs {
  @IsString() city!: string;
}

export class Weather {
  @Tool({ description: "Today's weather in a city", view: WeatherViews })
  weather(@Arg() args: CityArgs, @Ctx() ctx: RequestContext) {
    const reading = { city: args.city, celsius: 4, sky: "light rain" };
    // Every caller gets a complete text answer; one that renders the view is told where to look.
    const text = `${args.city}: ${reading.celsius} °C, ${reading.sky}.`;
    return Result.structured(reading, rendersViews(ctx) ? `${text} Shown in the dashboard.` : text);
  }

  @Tool({ description: "Refreshes the dashboard", view: "ui://weather/dashboard", visibility: ["app"] })
  refresh(@Arg() args: CityArgs) {
    return Result.structured({ city: args.city, celsius: 5, sky: "clearing" }, `${args.city}: 5 °C, clearing.`);
  }
}

export function createWeatherApp(): McpApp {
  return McpApp.create({ components: [Weather, WeatherViews], state: { ephemeral: true }, features: [apps()] });
}

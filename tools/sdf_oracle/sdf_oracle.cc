// sdf_oracle: what sdformat itself reads from an SDF file's sensor noise, as the
// oracle of tests/test_sdf_oracle.py (fastnoise's load_sensors is compared with it).
//
// Build against Debian's libsdformat-dev (sdformat 12):
//   g++ -O1 -std=c++17 tools/sdf_oracle/sdf_oracle.cc -o build/sdf_oracle \
//       $(pkg-config --cflags --libs sdformat12)
// Usage: sdf_oracle FILE. Prints one line per sensor of the file, noisy or not, then
// one line per sensor that has a <noise> written in the file, then one line per such
// <noise> (not inside <plugin>):
//   ALL <scoped name> <type attribute as written>
//   SENSOR <scoped name> <type attribute as written>
//   NOISE <scoped name> <path below the sensor> <type> <key>=<value> ...
// Values are sdformat's (defaults filled in), printed with 17 significant digits, as
// key=value; in a <noise> sdformat 12 has no description of (copied unread), the text of
// each key written in the file, as key~text;
// <type> is the attribute (noise.sdf) or the <type> child (lidar.sdf, camera.sdf).
// Includes are not resolved. sdformat's errors go to stderr; the exit status is 0
// when the file was read (even with errors sdformat recovers from).
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <sdf/sdf.hh>

namespace {

const char *const kKeys[] = {"mean",
                             "stddev",
                             "bias_mean",
                             "bias_stddev",
                             "dynamic_bias_stddev",
                             "dynamic_bias_correlation_time",
                             "precision"};

void CollectNoise(const sdf::ElementPtr &elem, const std::string &path,
                  std::vector<std::pair<std::string, sdf::ElementPtr>> &out) {
  for (sdf::ElementPtr c = elem->GetFirstElement(); c; c = c->GetNextElement("")) {
    const std::string name = c->GetName();
    if (name == "plugin") continue;
    const std::string here = path.empty() ? name : path + "/" + name;
    if (name == "noise") {
      if (c->GetExplicitlySetInFile()) out.emplace_back(here, c);
      continue;
    }
    CollectNoise(c, here, out);
  }
}

std::string NoiseType(const sdf::ElementPtr &noise) {
  sdf::ParamPtr attr = noise->GetAttribute("type");
  if (attr) return attr->GetAsString();
  if (noise->HasElementDescription("type") || noise->HasElement("type"))
    return noise->Get<std::string>("type");
  return "?";
}

void Sensor(const sdf::ElementPtr &sensor, const std::string &scope) {
  const std::string scoped = scope + "::" + sensor->Get<std::string>("name");
  std::printf("ALL %s %s\n", scoped.c_str(),
              sensor->GetAttribute("type")->GetAsString().c_str());
  std::vector<std::pair<std::string, sdf::ElementPtr>> noises;
  CollectNoise(sensor, "", noises);
  if (noises.empty()) return;
  std::printf("SENSOR %s %s\n", scoped.c_str(),
              sensor->GetAttribute("type")->GetAsString().c_str());
  for (const auto &[path, noise] : noises) {
    std::printf("NOISE %s %s %s", scoped.c_str(), path.c_str(), NoiseType(noise).c_str());
    for (const char *key : kKeys) {
      if (noise->HasElementDescription(key)) {
        std::printf(" %s=%.17g", key, noise->Get<double>(key));
      } else if (noise->HasElement(key)) {
        // a <noise> sdformat 12 does not describe (air_speed: SDF 1.10): it copied the
        // element unread, so print the text as written (no default filled in)
        sdf::ParamPtr value = noise->GetElement(key)->GetValue();
        if (value) std::printf(" %s~%s", key, value->GetAsString().c_str());
      }
    }
    std::printf("\n");
  }
}

void Model(const sdf::ElementPtr &model, const std::string &scope) {
  const std::string here =
      (scope.empty() ? "" : scope + "::") + model->Get<std::string>("name");
  for (sdf::ElementPtr c = model->GetFirstElement(); c; c = c->GetNextElement("")) {
    const std::string name = c->GetName();
    if (name == "link" || name == "joint") {
      const std::string holder = here + "::" + c->Get<std::string>("name");
      for (sdf::ElementPtr s = c->GetFirstElement(); s; s = s->GetNextElement(""))
        if (s->GetName() == "sensor") Sensor(s, holder);
    } else if (name == "model") {
      Model(c, here);
    }
  }
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s FILE\n", argv[0]);
    return 2;
  }
  sdf::ParserConfig config;
  config.SetFindCallback([](const std::string &) { return std::string(); });
  sdf::SDFPtr sdf(new sdf::SDF());
  sdf::init(sdf);
  sdf::Errors errors;
  if (!sdf::readFile(argv[1], config, sdf, errors)) {
    for (const auto &e : errors) std::fprintf(stderr, "%s\n", e.Message().c_str());
    return 1;
  }
  for (const auto &e : errors) std::fprintf(stderr, "%s\n", e.Message().c_str());
  sdf::ElementPtr root = sdf->Root();
  for (sdf::ElementPtr c = root->GetFirstElement(); c; c = c->GetNextElement("")) {
    if (c->GetName() == "world") {
      for (sdf::ElementPtr m = c->GetFirstElement(); m; m = m->GetNextElement(""))
        if (m->GetName() == "model") Model(m, "");
    } else if (c->GetName() == "model") {
      Model(c, "");
    }
  }
  return 0;
}

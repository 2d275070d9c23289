// sdf_oracle: what sdformat itself reads from SDF files' sensor noise, as the oracle
// of tests/test_sdf_oracle.py (fastnoise's load_sensors is compared with it).
//
// Build against Debian's libsdformat-dev (sdformat 12):
//   g++ -O1 -std=c++17 tools/sdf_oracle/sdf_oracle.cc -o build/sdf_oracle \
//       $(pkg-config --cflags --libs sdformat12)
// Usage: sdf_oracle FILE...   or   sdf_oracle --list LISTFILE (one path a line).
// All files are read in this one process, one block each:
//   FILE <path>
//   ALL <scoped name> <type attribute as written>        (every sensor, noisy or not)
//   SENSOR <scoped name> <type attribute as written>     (those with a <noise> written)
//   NOISE <scoped name> <path below the sensor> <type> <key>=<value> ...
//   ERROR <sdformat's error message, on one line>
//   END ok|errors|refused
// "refused": sdf::readFile returned false (nothing read); "errors": it read the file but
// reported errors; "ok": neither. NOISE lines come for each <noise> written in the file
// (not inside <plugin>). Values are sdformat's (defaults filled in), printed with 17
// significant digits, as key=value; in a <noise> sdformat 12 has no description of
// (copied unread), the text of each key written in the file, as key~text;
// <type> is the attribute (noise.sdf) or the <type> child (lidar.sdf, camera.sdf).
// Includes are not looked up in any model path (the find callback finds nothing).
// The exit status is 0 when every file was handled (whatever sdformat said of it).
#include <cstdio>
#include <fstream>
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
        std::printf("NOISE %s %s %s", scoped.c_str(), path.c_str(),
                    NoiseType(noise).c_str());
        for (const char *key : kKeys) {
            if (noise->HasElementDescription(key)) {
                std::printf(" %s=%.17g", key, noise->Get<double>(key));
            } else if (noise->HasElement(key)) {
                // a <noise> sdformat 12 does not describe (air_speed: SDF 1.10): it copied
                // the element unread, so print the text as written (no default filled in)
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

void ReadOne(const std::string &path, const sdf::ElementPtr &description) {
    std::printf("FILE %s\n", path.c_str());
    sdf::ParserConfig config;
    config.SetFindCallback([](const std::string &) { return std::string(); });
    // a copy of the description sdf::init read once (reading it again for every file
    // would cost about 0.1 s a file)
    sdf::SDFPtr sdf(new sdf::SDF());
    sdf->Root(description->Clone());
    sdf::Errors errors;
    const bool read = sdf::readFile(path, config, sdf, errors);
    if (read) {
        sdf::ElementPtr root = sdf->Root();
        for (sdf::ElementPtr c = root->GetFirstElement(); c; c = c->GetNextElement("")) {
            if (c->GetName() == "world") {
                for (sdf::ElementPtr m = c->GetFirstElement(); m; m = m->GetNextElement(""))
                    if (m->GetName() == "model") Model(m, "");
            } else if (c->GetName() == "model") {
                Model(c, "");
            }
        }
    }
    for (const auto &e : errors) {
        std::string msg = e.Message();
        for (char &ch : msg)
            if (ch == '\n' || ch == '\r') ch = ' ';
        std::printf("ERROR %s\n", msg.c_str());
    }
    std::printf("END %s\n", !read ? "refused" : (errors.empty() ? "ok" : "errors"));
    std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv) {
    std::vector<std::string> paths;
    if (argc == 3 && std::string(argv[1]) == "--list") {
        std::ifstream list(argv[2]);
        if (!list) {
            std::fprintf(stderr, "%s: cannot read %s\n", argv[0], argv[2]);
            return 2;
        }
        for (std::string line; std::getline(list, line);)
            if (!line.empty()) paths.push_back(line);
    } else {
        for (int i = 1; i < argc; ++i)
            paths.emplace_back(argv[i]);
    }
    if (paths.empty()) {
        std::fprintf(stderr, "usage: %s FILE... | %s --list LISTFILE\n", argv[0], argv[0]);
        return 2;
    }
    sdf::SDFPtr blank(new sdf::SDF());
    sdf::init(blank);
    for (const auto &p : paths)
        ReadOne(p, blank->Root());
    return 0;
}

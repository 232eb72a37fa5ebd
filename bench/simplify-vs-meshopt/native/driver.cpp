// Kiln's driver for native meshoptimizer in bench/simplify-vs-meshopt: it is
// compiled by native.go with g++ -O3 -march=native against meshoptimizer's
// own sources (never copied into this repository; see the README) and
// calls meshopt_simplifyWithAttributes on the meshes native.go exported.
//
// argv[1] is a manifest with one primitive a line:
//   INDICES.u32 POSITIONS.f32 ATTRIBUTES.f32 VERTICES ATTRIBUTE_COUNT
// (raw little-endian files; attributes interleaved, ATTRIBUTE_COUNT floats a
// vertex, every one at weight 1). Then each stdin line is one request:
//   FIRST COUNT RATIO MAX_ERROR OUT_PREFIX
// which simplifies primitives FIRST .. FIRST+COUNT-1 in turn, each to
// floor(triangles * RATIO) * 3 indices, times the whole loop (the calls only:
// inputs are loaded and outputs allocated beforehand), writes each result to
// OUT_PREFIX-K.u32 and answers one line: seconds (wall), seconds of the
// process's CPU time, indices, largest error.
#include "meshoptimizer.h"

#include <chrono>
#include <ctime>
#include <cstdlib>
#include <cstring>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

template <typename T>
static std::vector<T> readRaw(const std::string& path)
{
	std::ifstream f(path, std::ios::binary);
	if (!f)
	{
		fprintf(stderr, "driver: cannot read %s\n", path.c_str());
		exit(1);
	}
	std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
	std::vector<T> v(bytes.size() / sizeof(T));
	if (!v.empty())
		memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
	return v;
}

struct Primitive
{
	std::vector<unsigned int> indices;
	std::vector<float> positions, attributes, weights;
	size_t vertices = 0, attributeCount = 0;
	std::vector<unsigned int> out;
};

int main(int argc, char** argv)
{
	if (argc != 2)
	{
		fprintf(stderr, "usage: driver MANIFEST\n");
		return 2;
	}
	std::vector<Primitive> prims;
	std::ifstream manifest(argv[1]);
	std::string idx, pos, attr;
	size_t nv, na;
	while (manifest >> idx >> pos >> attr >> nv >> na)
	{
		Primitive p;
		p.indices = readRaw<unsigned int>(idx);
		p.positions = readRaw<float>(pos);
		p.attributes = readRaw<float>(attr);
		p.vertices = nv;
		p.attributeCount = na;
		p.weights.assign(na, 1.0f);
		p.out.resize(p.indices.size());
		prims.push_back(std::move(p));
	}

	std::string line;
	while (std::getline(std::cin, line))
	{
		std::istringstream in(line);
		size_t first, count;
		double ratio;
		float maxError;
		std::string prefix;
		if (!(in >> first >> count >> ratio >> maxError >> prefix) || first + count > prims.size())
		{
			fprintf(stderr, "driver: bad request %s\n", line.c_str());
			return 1;
		}
		std::vector<size_t> written(count);
		float worst = 0;
		timespec c0, c1;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
		auto t0 = std::chrono::steady_clock::now();
		for (size_t k = 0; k < count; ++k)
		{
			Primitive& p = prims[first + k];
			size_t target = size_t(double(p.indices.size() / 3) * ratio) * 3;
			float err = 0;
			written[k] = meshopt_simplifyWithAttributes(p.out.data(), p.indices.data(), p.indices.size(),
			    p.positions.data(), p.vertices, 12, p.attributeCount ? p.attributes.data() : nullptr, p.attributeCount * 4,
			    p.attributeCount ? p.weights.data() : nullptr, p.attributeCount, nullptr, target, maxError, 0, &err);
			if (err > worst)
				worst = err;
		}
		double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
		double cpu = double(c1.tv_sec - c0.tv_sec) + 1e-9 * double(c1.tv_nsec - c0.tv_nsec);
		size_t total = 0;
		for (size_t k = 0; k < count; ++k)
		{
			Primitive& p = prims[first + k];
			std::string path = prefix + "-" + std::to_string(k) + ".u32";
			FILE* f = fopen(path.c_str(), "wb");
			if (!f || fwrite(p.out.data(), 4, written[k], f) != written[k])
			{
				fprintf(stderr, "driver: cannot write %s\n", path.c_str());
				return 1;
			}
			fclose(f);
			total += written[k];
		}
		printf("%.9f %.9f %zu %.9g\n", seconds, cpu, total, worst);
		fflush(stdout);
	}
	return 0;
}

"""Trains scikit-learn models (trees, linear models, SVMs, neighbours, naive Bayes, clustering, PCA, MLPs,
ensembles; alone and in pipelines after scalers, imputers, encoders) on synthetic data, converts them with
skl2onnx (as a user would),
compiles each with mie-compile, runs it with mie-run and compares every output with onnxruntime:
labels exactly, scores and regression values within 1e-5 relative to the largest magnitude.
The classical-ML counterpart of arch_zoo.py: models nobody here wrote, the converters' own graphs.

Usage: sklearn_zoo.py [--build build] [--work DIR] [--rows 200] [--models a,b]
Needs scikit-learn, skl2onnx, onnx and onnxruntime (a venv of their own:
`python3 -m venv /tmp/skl && /tmp/skl/bin/pip install scikit-learn skl2onnx onnx onnxruntime`).
Exit status 0 when every model compiled and matched. Never part of the test run.
"""
import argparse
import os
import subprocess
import sys

import numpy as np

TOLERANCE = 1e-5


def models():
    from sklearn import (cluster, decomposition, discriminant_analysis, ensemble, impute, linear_model,
                         naive_bayes, neighbors, neural_network, pipeline, preprocessing, svm, tree)
    binary, multi = "binary", "multi"
    return {
        "linear_regression": (linear_model.LinearRegression(), "regression"),
        "ridge_multioutput": (linear_model.Ridge(alpha=0.5), "multioutput"),
        "logistic_regression_binary": (linear_model.LogisticRegression(max_iter=500), binary),
        "logistic_regression_multiclass": (linear_model.LogisticRegression(max_iter=500), multi),
        "linear_svc_multiclass": (svm.LinearSVC(max_iter=5000), multi),
        "sgd_classifier_binary": (linear_model.SGDClassifier(random_state=0), binary),
        "scaler_logistic_regression": (pipeline.make_pipeline(
            preprocessing.StandardScaler(), linear_model.LogisticRegression(max_iter=500)), multi),
        "imputer_logistic_regression": (pipeline.make_pipeline(
            impute.SimpleImputer(strategy="median"), linear_model.LogisticRegression(max_iter=500)), multi),
        "normalizer_ridge": (pipeline.make_pipeline(preprocessing.Normalizer(norm="l1"),
                                                    linear_model.Ridge()), "regression"),
        "normalizer_max_random_forest": (pipeline.make_pipeline(
            preprocessing.Normalizer(norm="max"), ensemble.RandomForestRegressor(10, random_state=0)),
            "regression"),
        "standard_scaler_random_forest": (pipeline.make_pipeline(
            preprocessing.StandardScaler(), ensemble.RandomForestClassifier(20, max_depth=6, random_state=0)),
            multi),
        "minmax_scaler_gradient_boosting": (pipeline.make_pipeline(
            preprocessing.MinMaxScaler(), ensemble.GradientBoostingRegressor(n_estimators=30, random_state=0)),
            "regression"),
        "decision_tree_classifier": (tree.DecisionTreeClassifier(max_depth=8, random_state=0), multi),
        "random_forest_binary": (ensemble.RandomForestClassifier(30, max_depth=7, random_state=0), binary),
        "random_forest_multiclass": (ensemble.RandomForestClassifier(30, max_depth=7, random_state=0), multi),
        "extra_trees_multiclass": (ensemble.ExtraTreesClassifier(30, max_depth=7, random_state=0), multi),
        "gradient_boosting_binary": (ensemble.GradientBoostingClassifier(n_estimators=40, random_state=0),
                                     binary),
        "gradient_boosting_multiclass": (ensemble.GradientBoostingClassifier(n_estimators=30, random_state=0),
                                         multi),
        "hist_gradient_boosting_binary": (ensemble.HistGradientBoostingClassifier(max_iter=30, random_state=0),
                                          binary),
        "hist_gradient_boosting_multiclass": (
            ensemble.HistGradientBoostingClassifier(max_iter=20, random_state=0), multi),
        "decision_tree_regressor": (tree.DecisionTreeRegressor(max_depth=8, random_state=0), "regression"),
        "random_forest_regressor": (ensemble.RandomForestRegressor(30, max_depth=7, random_state=0),
                                    "regression"),
        "extra_trees_regressor": (ensemble.ExtraTreesRegressor(30, max_depth=7, random_state=0), "regression"),
        "gradient_boosting_regressor": (ensemble.GradientBoostingRegressor(n_estimators=40, random_state=0),
                                        "regression"),
        "hist_gradient_boosting_regressor": (
            ensemble.HistGradientBoostingRegressor(max_iter=30, random_state=0), "regression"),
        "random_forest_multioutput": (ensemble.RandomForestRegressor(20, max_depth=6, random_state=0),
                                      "multioutput"),
        "svc_rbf_binary": (svm.SVC(), binary),
        "svc_rbf_multiclass": (svm.SVC(), multi),
        "svc_rbf_probability": (svm.SVC(probability=True, random_state=0), multi),
        "svc_rbf_probability_binary": (svm.SVC(probability=True, random_state=0), binary),
        "svc_linear_multiclass": (svm.SVC(kernel="linear"), multi),
        "svc_poly_multiclass": (svm.SVC(kernel="poly", degree=3), multi),
        "svc_sigmoid_binary": (svm.SVC(kernel="sigmoid"), binary),
        "nu_svc_multiclass": (svm.NuSVC(), multi),
        "svr_rbf": (svm.SVR(), "regression"),
        "svr_linear": (svm.SVR(kernel="linear"), "regression"),
        "nu_svr_poly": (svm.NuSVR(kernel="poly"), "regression"),
        "one_class_svm": (svm.OneClassSVM(gamma="scale"), "regression"),
        "scaler_svc": (pipeline.make_pipeline(preprocessing.StandardScaler(), svm.SVC()), multi),
        "one_hot_logistic_regression": (pipeline.make_pipeline(
            preprocessing.OneHotEncoder(handle_unknown="ignore"),
            linear_model.LogisticRegression(max_iter=500)), "multi_categorical"),
        "one_hot_error_random_forest": (pipeline.make_pipeline(
            preprocessing.OneHotEncoder(), ensemble.RandomForestClassifier(10, random_state=0)),
            "multi_categorical"),
        "knn_classifier": (neighbors.KNeighborsClassifier(5), multi),
        "knn_regressor": (neighbors.KNeighborsRegressor(5), "regression"),
        "gaussian_nb": (naive_bayes.GaussianNB(), multi),
        "multinomial_nb": (naive_bayes.MultinomialNB(), "multi_nonneg"),
        "bernoulli_nb": (naive_bayes.BernoulliNB(), multi),
        "lda": (discriminant_analysis.LinearDiscriminantAnalysis(), multi),
        "kmeans": (cluster.KMeans(4, n_init=3, random_state=0), "cluster"),
        "pca": (decomposition.PCA(4), "transform"),
        "pca_logistic_regression": (pipeline.make_pipeline(
            decomposition.PCA(5), linear_model.LogisticRegression(max_iter=500)), multi),
        "polynomial_ridge": (pipeline.make_pipeline(preprocessing.PolynomialFeatures(2),
                                                    linear_model.Ridge()), "regression"),
        "kbins_logistic_regression": (pipeline.make_pipeline(
            preprocessing.KBinsDiscretizer(4, encode="onehot-dense"),
            linear_model.LogisticRegression(max_iter=500)), multi),
        "mlp_classifier": (neural_network.MLPClassifier(hidden_layer_sizes=(16,), max_iter=300, random_state=0), multi),
        "mlp_regressor": (neural_network.MLPRegressor(hidden_layer_sizes=(16,), max_iter=300, random_state=0), "regression"),
        "adaboost_classifier": (ensemble.AdaBoostClassifier(n_estimators=20, random_state=0), multi),
        "bagging_classifier": (ensemble.BaggingClassifier(n_estimators=5, random_state=0), multi),
        "voting_classifier": (ensemble.VotingClassifier([
            ("lr", linear_model.LogisticRegression(max_iter=500)),
            ("rf", ensemble.RandomForestClassifier(10, random_state=0))], voting="soft",
            flatten_transform=False), multi),
        "isolation_forest": (ensemble.IsolationForest(n_estimators=20, random_state=0), "regression"),
    }


def data(task, rows, seed=0):
    from sklearn import datasets
    if task == "binary":
        return datasets.make_classification(rows, 8, n_informative=5, n_classes=2, random_state=seed)
    if task == "multi":
        return datasets.make_classification(rows, 8, n_informative=5, n_classes=4, random_state=seed)
    if task in ("multi_nonneg", "multi_categorical"):
        x, y = datasets.make_classification(rows, 8, n_informative=5, n_classes=4, random_state=seed)
        return (np.abs(x) if task == "multi_nonneg" else np.clip(np.round(x + 2), 0, 4)), y
    if task in ("cluster", "transform"):
        return datasets.make_blobs(rows, 8, centers=4, random_state=seed)
    if task == "multioutput":
        x, y = datasets.make_regression(rows, 8, n_targets=3, random_state=seed)
        return x, y
    return datasets.make_regression(rows, 8, random_state=seed)


def rel_error(got, ref):
    ref = np.asarray(ref, np.float64)
    return float(np.max(np.abs(np.asarray(got, np.float64) - ref)) / max(1.0, float(np.max(np.abs(ref)))))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--work", default="/tmp/sklearn_zoo")
    parser.add_argument("--rows", type=int, default=200)
    parser.add_argument("--models", help="comma-separated names (default: all)")
    args = parser.parse_args()
    import onnxruntime as ort
    from skl2onnx import to_onnx

    os.makedirs(args.work, exist_ok=True)
    table = models()
    names = args.models.split(",") if args.models else list(table)
    failed = skipped = 0
    print(f"{'model':<36} {'trees':>5} {'result':<10} detail")  # trees: 1 for single trees and linear models
    for name in names:
        estimator, task = table[name]
        x, y = data(task, args.rows)
        x = x.astype(np.float32)
        if name.startswith("imputer_"):  # a few missing values to impute
            x[np.random.default_rng(1).random(x.shape) < 0.05] = np.nan
        estimator.fit(x, y)
        final = estimator.steps[-1][1] if hasattr(estimator, "steps") else estimator
        # Probabilities as a tensor rather than ZipMap's maps (sequences of maps are not supported);
        # converters without the option (LinearSVC) write no ZipMap.
        opsets = {"": 17, "ai.onnx.ml": 3}
        try:
            try:
                onx = to_onnx(estimator, x[:1], options={id(final): {"zipmap": False}},
                              target_opset=opsets) if task.split("_")[0] in ("binary", "multi") else None
            except (NameError, ValueError, RuntimeError) as e:
                if "zipmap" not in str(e):
                    raise
                onx = None
            if onx is None:
                onx = to_onnx(estimator, x[:1], target_opset=opsets)
        except Exception as e:  # the converter's own failures are not ours; say so and go on
            skipped += 1
            print(f"{name:<36} {'':>5} {'NO ONNX':<10} skl2onnx failed: {str(e).splitlines()[0][:100]}")
            continue
        folder = os.path.join(args.work, name)
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "model.onnx")
        with open(path, "wb") as f:
            f.write(onx.SerializeToString())
        session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
        input_name = session.get_inputs()[0].name
        reference = session.run(None, {input_name: x})
        x_path = os.path.join(folder, "x.npy")
        np.save(x_path, x)
        package = os.path.join(folder, "model.mie")
        trees = getattr(final, "n_estimators", None) or 1  # trees in an ensemble; 1 otherwise
        compiled = subprocess.run([os.path.join(args.build, "bin", "mie-compile"), path, "-o", package,
                                   f"--input-shape={input_name}={'x'.join(map(str, x.shape))}"],
                                  capture_output=True, text=True)
        if compiled.returncode != 0:
            failed += 1
            last = (compiled.stderr.strip().splitlines() or ["?"])[-1]
            print(f"{name:<36} {trees:>5} {'REFUSED':<10} {last}")
            continue
        outs = [os.path.join(folder, f"out_{k}.npy") for k in range(len(reference))]
        ran = subprocess.run([os.path.join(args.build, "bin", "mie-run"), package, "--input",
                              f"{input_name}={x_path}", *sum([["--output", o] for o in outs], [])],
                             capture_output=True, text=True)
        if ran.returncode != 0:
            failed += 1
            print(f"{name:<36} {trees:>5} {'RUN FAILED':<10} {ran.stderr.strip()[-200:]}")
            continue
        details, ok = [], True
        for k, ref in enumerate(reference):
            got = np.load(outs[k])
            if got.shape != np.asarray(ref).shape:
                ok = False
                details.append(f"output {k}: shape {got.shape} vs {np.asarray(ref).shape}")
            elif np.asarray(ref).dtype.kind in "iu":
                mismatches = int(np.sum(got != ref))
                ok &= mismatches == 0
                details.append(f"labels: {mismatches} of {got.size} differ")
            else:
                err = rel_error(got, ref)
                ok &= err <= TOLERANCE
                details.append(f"output {k}: max rel err {err:.1e}")
        failed += not ok
        print(f"{name:<36} {trees:>5} {'ok' if ok else 'MISMATCH':<10} {'; '.join(details)}")
    print(f"{len(names) - failed - skipped} of {len(names) - skipped} converted models match onnxruntime"
          + (f" ({skipped} did not convert)" if skipped else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

import { domainRouter } from "../../http/route";
import { AddCategory } from "./routes/add-category";
import { ClearCategoryIcon } from "./routes/clear-icon";
import { DeleteCategory } from "./routes/delete-category";
import { GetCategoryUsage } from "./routes/get-usage";
import { ListCategories } from "./routes/list-categories";
import { ListCategoryIcons } from "./routes/list-icons";
import { ListManagedCategories } from "./routes/list-managed";
import { RenameCategory } from "./routes/rename-category";
import { SetCategoryIcon } from "./routes/set-icon";
import { UpdateCategoryGroup } from "./routes/update-group";

/** Mounted at /api/v1/categories. Fixed paths (managed, icons) register before `/:name`. */
export function categoriesRouter() {
  const router = domainRouter();
  router.get("/", ListCategories);
  router.post("/", AddCategory);
  router.get("/managed", ListManagedCategories);
  router.get("/icons", ListCategoryIcons);
  router.put("/icons", SetCategoryIcon);
  router.delete("/icons", ClearCategoryIcon);
  router.get("/:name/usage", GetCategoryUsage);
  router.put("/:name/group", UpdateCategoryGroup);
  router.put("/:old_name", RenameCategory);
  router.delete("/:name", DeleteCategory);
  return router;
}

/** This domain's ledger reverters (app.ts registers them): a category's group and icon. */
export { categoryReverters } from "./revert";

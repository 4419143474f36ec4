import {
  AddCategory,
  ClearCategoryIcon,
  DeleteCategory,
  GetCategoryUsage,
  ListCategories,
  ListCategoryIcons,
  ListManagedCategories,
  RenameCategory,
  SetCategoryIcon,
  UpdateCategoryGroup,
} from "./routes";
import { domainRouter } from "../../http/route";

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
